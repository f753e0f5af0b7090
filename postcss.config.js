import tailwindcss from "@tailwindcss/postcss";

export default {
  // `optimize` runs Lightning CSS on every build: it minifies and flattens CSS nesting,
  // which the classic compiler's esbuild 0.17 cannot parse.
  plugins: [tailwindcss({ optimize: { minify: true } })],
};
