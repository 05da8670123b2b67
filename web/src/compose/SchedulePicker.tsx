// When to send a scheduled message: a few common times, or any date and time.
import { useState } from 'react';

function at(hours: number, dayOffset: number): Date {
  const d = new Date();
  d.setDate(d.getDate() + dayOffset);
  d.setHours(hours, 0, 0, 0);
  return d;
}

const local = (d: Date) => new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);

export default function SchedulePicker({ onSchedule, onCancel }: { onSchedule(at: number): void; onCancel(): void }) {
  const nextMonday = at(9, ((8 - new Date().getDay()) % 7) || 7);
  const choices: [string, Date][] = [
    ['In one hour', new Date(Date.now() + 3_600_000)],
    ['Tomorrow at 9:00', at(9, 1)],
    ['Monday at 9:00', nextMonday],
  ];
  const [custom, setCustom] = useState(local(at(9, 1)));
  const send = (d: Date) => onSchedule(Math.floor(d.getTime() / 1000));
  return (
    <div className="schedule-picker" role="group" aria-label="Schedule message">
      {choices.map(([label, d]) => (
        <button key={label} type="button" className="button" onClick={() => send(d)} title={d.toLocaleString()}>{label}</button>
      ))}
      <label>
        <span className="sr-only">Date and time</span>
        <input type="datetime-local" value={custom} min={local(new Date())} onChange={(e) => setCustom(e.target.value)} />
      </label>
      <button type="button" className="button primary" onClick={() => send(new Date(custom))}>Schedule</button>
      <button type="button" className="button" onClick={onCancel}>Cancel</button>
    </div>
  );
}
