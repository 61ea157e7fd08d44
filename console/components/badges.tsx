import { formatScore, scoreLevel, severityOf } from '../lib/shared/format';

export function StatusBadge({ status }: { status: string }) {
  const s = status.toLowerCase();
  return <span className={`badge ${s}`}>{s}</span>;
}

export function Tags({ tags }: { tags: string[] }) {
  if (tags.length === 0) return <span className="muted">none</span>;
  return (
    <span className="tags">
      {tags.map((t) => (
        <span key={t} className={`tag ${severityOf(t)}`} title={`${severityOf(t)} severity`}>
          {t}
        </span>
      ))}
    </span>
  );
}

export function Score({ value }: { value: number | null }) {
  if (value == null) return <span className="muted">—</span>;
  return <span className={`score ${scoreLevel(value)}`}>{formatScore(value)}</span>;
}
