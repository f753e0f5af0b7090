export function SiteHeader() {
  return <header id="top" />;
}
