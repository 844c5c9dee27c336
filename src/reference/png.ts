import { deflateSync } from 'node:zlib';

/**
 * Minimal PNG writer (8-bit RGB, no interlace) so seeded media are real, valid image files
 * without an image library. Patterns are stripes of two colours, which compress to a few KB.
 */

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = (CRC_TABLE[(c ^ byte) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

export type Rgb = readonly [number, number, number];

export interface StripePattern {
  readonly width: number;
  readonly height: number;
  readonly background: Rgb;
  readonly foreground: Rgb;
  /** Width of one diagonal stripe in pixels (>= 1). */
  readonly stripe: number;
}

/** Encodes a diagonal two-colour stripe pattern as a PNG file. */
export function encodeStripePng(pattern: StripePattern): Buffer {
  const { width, height, background, foreground } = pattern;
  const stripe = Math.max(1, Math.floor(pattern.stripe));
  const rowLength = 1 + width * 3;
  const raw = Buffer.alloc(rowLength * height);
  for (let y = 0; y < height; y++) {
    const row = y * rowLength;
    raw[row] = 0; // filter type "None"
    for (let x = 0; x < width; x++) {
      const colour = Math.floor((x + y) / stripe) % 2 === 0 ? background : foreground;
      const at = row + 1 + x * 3;
      raw[at] = colour[0];
      raw[at + 1] = colour[1];
      raw[at + 2] = colour[2];
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
