/**
 * The parts of Decap CMS's browser API (window.CMS, window.h, window.createClass) the /admin page's
 * script uses, typed: Decap bundles its own React, and components are made with its `h` and
 * `createClass`, never with the site's React.
 */

/** An Immutable.js map as Decap hands entries to previews. */
export interface ImmutableMap {
  get(key: string): unknown;
  toJS(): unknown;
}

/** What Decap passes a preview template. */
export interface PreviewProps {
  entry: ImmutableMap;
  collection: ImmutableMap;
  /** The editor's copy of a file a field names (`images/photo.jpg`): its URL once Decap has it. */
  getAsset: (path: string) => { toString(): string } | null | undefined;
}

/** Decap's React element, opaque here. */
export type DecapElement = object;

/** A class component made with Decap's `createClass` (create-react-class). */
export interface ComponentSpec<Props, Self> {
  render(this: Self & { props: Props }): DecapElement | null;
  componentDidMount?(this: Self & { props: Props }): void;
  componentDidUpdate?(this: Self & { props: Props }, previous: Props): void;
  componentWillUnmount?(this: Self & { props: Props }): void;
}

export interface DecapWindow {
  CMS: {
    registerPreviewStyle(href: string): void;
    registerPreviewTemplate(name: string, component: unknown): void;
    registerLocale(locale: string, phrases: object): void;
    getLocale(locale: string): object | undefined;
  };
  h(type: string, props: Record<string, unknown> | null, ...children: unknown[]): DecapElement;
  createClass<Props, Self>(
    spec: ComponentSpec<Props, Self> & ThisType<Self & { props: Props }> & Self,
  ): unknown;
}

export const decap = window as unknown as Window & DecapWindow;
