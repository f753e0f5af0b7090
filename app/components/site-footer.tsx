export function SiteFooter({ year }: { year: number }) {
  return <footer>© {year}</footer>;
}
