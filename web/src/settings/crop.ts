// The avatar's crop: the central square of the picture, at most 512 pixels a side, as a PNG. Done in the
// browser so that the person sees what others will see before uploading it.
const SIDE = 512;

export async function cropSquare(file: File): Promise<File> {
  const bitmap = await createImageBitmap(file).catch(() => {
    throw new Error('This file is not an image the browser can read.');
  });
  const side = Math.min(bitmap.width, bitmap.height);
  const out = Math.min(side, SIDE);
  const canvas = document.createElement('canvas');
  canvas.width = out;
  canvas.height = out;
  canvas.getContext('2d')!.drawImage(bitmap, (bitmap.width - side) / 2, (bitmap.height - side) / 2, side, side, 0, 0, out, out);
  bitmap.close();
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
  if (!blob) throw new Error('The image could not be cropped.');
  return new File([blob], file.name.replace(/\.\w+$/, '') + '.png', { type: 'image/png' });
}
