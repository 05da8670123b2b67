// Custom emoji images: the format is read from the file's first bytes, never taken from the client's word, so
// that what is served under an image type is an image.
export interface ImageKind { ext: 'png' | 'gif' | 'jpg' | 'webp'; mime: string }

const KINDS: { magic: (b: Buffer) => boolean; kind: ImageKind }[] = [
  { magic: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])), kind: { ext: 'png', mime: 'image/png' } },
  { magic: (b) => /^GIF8[79]a$/.test(b.subarray(0, 6).toString('latin1')), kind: { ext: 'gif', mime: 'image/gif' } },
  { magic: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff, kind: { ext: 'jpg', mime: 'image/jpeg' } },
  { magic: (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP', kind: { ext: 'webp', mime: 'image/webp' } },
];

export function imageKind(data: Buffer): ImageKind | null {
  return KINDS.find((k) => k.magic(data))?.kind ?? null;
}

export const MIME_BY_EXT: Record<string, string> = Object.fromEntries(KINDS.map((k) => [k.kind.ext, k.kind.mime]));
