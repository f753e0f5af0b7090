/** The part of harfbuzzjs's API the tests use to shape text with a built font (the package ships no types;
 * its module is a promise, so it is loaded with `require`). */
declare module "harfbuzzjs" {
  interface Blob {
    destroy(): void;
  }
  interface Face {
    destroy(): void;
  }
  interface Font {
    destroy(): void;
  }
  interface Buffer {
    addText(text: string): void;
    guessSegmentProperties(): void;
    json(): Array<{ g: number; cl: number }>;
    destroy(): void;
  }
  export interface HarfBuzz {
    createBlob(data: ArrayBuffer | Uint8Array): Blob;
    createFace(blob: Blob, index: number): Face;
    createFont(face: Face): Font;
    createBuffer(): Buffer;
    shape(font: Font, buffer: Buffer, features?: string): void;
  }
}
