// Topics one has muted, unmuted (in a muted channel) or followed.
import { useServer } from '../../data/hooks';
import { setTopicPolicy } from '../actions';
import { Select, Status, useRequest } from '../controls';

const POLICY: Record<number, string> = { 1: 'Muted', 2: 'Unmuted', 3: 'Followed' };

export default function Topics() {
  const topics = useServer((s) => s.userTopics);
  const channels = useServer((s) => s.channels);
  const known = useServer((s) => s.topics);
  const [outcome, run] = useRequest();
  const rows = [...topics].map(([key, policy]) => {
    // The key holds the topic in lower case; its own spelling, when the app has seen it.
    const [id, lower] = key.split('\u0000');
    const topic = known.get(Number(id))?.find((t) => t.name.toLowerCase() === lower)?.name ?? lower;
    return { streamId: Number(id), topic, policy };
  });
  return (
    <>
      <Status outcome={outcome} />
      <table className="settings-table">
        <thead><tr><th scope="col">Channel</th><th scope="col">Topic</th><th scope="col">Status</th><th /></tr></thead>
        <tbody>
          {rows.map((r) => (
            <tr key={`${r.streamId}:${r.topic}`}>
              <td>#{channels.get(r.streamId)?.name ?? r.streamId}</td>
              <td>{r.topic}</td>
              <td>
                <Select label={`Status of ${r.topic}`} value={r.policy} options={Object.entries(POLICY).map(([v, label]): [number, string] => [Number(v), label])} onChange={(policy) => run(setTopicPolicy(r.streamId, r.topic, policy))} />
              </td>
              <td><button type="button" className="button" onClick={() => void run(setTopicPolicy(r.streamId, r.topic, 0), 'Back to default')}>Reset</button></td>
            </tr>
          ))}
          {!rows.length && <tr><td colSpan={4} className="detail">No muted or followed topics.</td></tr>}
        </tbody>
      </table>
    </>
  );
}
