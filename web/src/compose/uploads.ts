// Files pasted, dropped or picked in the compose box: each is uploaded with its progress shown, and a link to it
// takes the place of its placeholder in the text once it is stored.
import { api } from '../api/client';
import { Store } from '../data/store';
import { setCompose, ui } from '../app/ui';

export interface Upload {
  id: number;
  name: string;
  progress: number; // 0..1
  error?: string;
  abort(): void;
}

export const uploads = new Store<Upload[]>([]);
let seq = 0;

const placeholder = (name: string, id: number) => `[Uploading ${name}… (${id})]()`;

function replaceInText(from: string, to: string): void {
  const text = ui.get().compose.text;
  if (text.includes(from)) setCompose({ text: text.replace(from, to) });
}

// `insert` puts text at the caret of the compose box.
export function uploadFiles(files: File[], insert: (text: string) => void, maxMib: number): void {
  for (const file of files) {
    const id = ++seq;
    const name = file.name || 'pasted-image.png';
    if (file.size > maxMib * 1024 * 1024) {
      uploads.update((u) => [...u, { id, name, progress: 0, error: `larger than the limit of ${maxMib} MiB`, abort: () => {} }]);
      continue;
    }
    const mark = placeholder(name, id);
    insert(`${mark} `);
    const task = api.upload(file, (p) => uploads.update((u) => u.map((x) => (x.id === id ? { ...x, progress: p } : x))));
    uploads.update((u) => [...u, { id, name, progress: 0, abort: task.abort }]);
    task.done.then(
      (res) => {
        replaceInText(mark, `[${res.filename.replace(/[[\]]/g, '')}](${res.url})`);
        uploads.update((u) => u.filter((x) => x.id !== id));
      },
      (err: Error) => {
        replaceInText(`${mark} `, '');
        uploads.update((u) => u.map((x) => (x.id === id ? { ...x, error: err.name === 'AbortError' ? 'cancelled' : err.message } : x)));
      },
    );
  }
}

export function dismissUpload(id: number): void {
  uploads.update((u) => u.filter((x) => x.id !== id));
}
