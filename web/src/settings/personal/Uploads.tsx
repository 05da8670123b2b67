// Files you uploaded, with the space they take against the organization's quota; delete what you no longer need.
import { useEffect, useState } from 'react';
import { useServer } from '../../data/hooks';
import { deleteAttachment, listAttachments, type Attachment } from '../actions';
import { Confirm, Status, useRequest } from '../controls';

const size = (bytes: number) => (bytes >= 1 << 20 ? `${(bytes / (1 << 20)).toFixed(1)} MB` : bytes >= 1024 ? `${Math.round(bytes / 1024)} KB` : `${bytes} B`);

export default function Uploads() {
  const quotaMib = useServer((s) => s.realmSettings.upload_quota_mib as number | null | undefined);
  const version = useServer((s) => s.attachmentsVersion);
  const [outcome, run] = useRequest();
  const [files, setFiles] = useState<Attachment[] | null>(null);
  const [used, setUsed] = useState(0);
  const load = () => listAttachments().then((r) => { setFiles(r.attachments); setUsed(r.upload_space_used); }, (err: Error) => void run(Promise.reject(err)));
  useEffect(() => void load(), [version]);
  return (
    <>
      <Status outcome={outcome} />
      <p className="upload-quota">
        Used: <strong>{size(used)}</strong>{quotaMib ? <> of the organization’s {quotaMib} MB</> : null}
        {quotaMib ? <progress max={quotaMib * (1 << 20)} value={used} aria-label="Upload space used" /> : null}
      </p>
      {files === null ? <p className="detail">Loading…</p> : (
        <table className="settings-table">
          <thead><tr><th scope="col">File</th><th scope="col">Uploaded</th><th scope="col">Messages</th><th scope="col">Size</th><th /></tr></thead>
          <tbody>
            {files.map((f) => (
              <tr key={f.id}>
                <td><a href={`/user_uploads/${f.path_id}`} target="_blank" rel="noreferrer">{f.name}</a></td>
                <td>{new Date(f.create_time).toLocaleDateString()}</td>
                <td>{f.messages.length}</td>
                <td>{size(f.size)}</td>
                <td><Confirm label="Delete?" onConfirm={() => void run(deleteAttachment(f.id), 'File deleted')}>Delete</Confirm></td>
              </tr>
            ))}
            {!files.length && <tr><td colSpan={5} className="detail">You have not uploaded any files.</td></tr>}
          </tbody>
        </table>
      )}
    </>
  );
}
