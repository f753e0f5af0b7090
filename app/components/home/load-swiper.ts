// Loaded with import() when the carousel nears the viewport, so Swiper stays out of the
// initial bundle; importing the module by name lets the bundler drop the modules we skip.
export { default as Swiper } from "swiper";
export { Autoplay } from "swiper/modules";
