export default function Loading() {
  return (
    <div className="muted" role="status" aria-live="polite" style={{ padding: 24 }}>
      Loading…
    </div>
  );
}
