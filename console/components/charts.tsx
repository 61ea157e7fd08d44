'use client';

import {
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  ComposedChart,
  Legend,
  Line,
  LineChart,
  Pie,
  PieChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';

const palette = ['#3b5bdb', '#d9480f', '#c92a2a', '#2b8a3e', '#b08800', '#7048e8', '#0c8599', '#868e96'];
const axis = { fontSize: 12, fill: '#5d6673' };

/** Scores with two decimals, counts as they are. */
const tooltipValue = (value: unknown) => (typeof value === 'number' && !Number.isInteger(value) ? value.toFixed(2) : String(value ?? '—'));

export interface TimePoint {
  label: string;
  events: number;
  meanScore: number | null;
}

/** Events per bucket (bars) and their mean risk score (line, right axis 0–1). */
export function EventsAndRiskChart({ data, title }: { data: TimePoint[]; title: string }) {
  return (
    <figure className="chart" aria-label={title} role="img" style={{ margin: 0 }}>
      <ResponsiveContainer width="100%" height="100%">
        <ComposedChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid stroke="#eef0f3" vertical={false} />
          <XAxis dataKey="label" tick={axis} minTickGap={24} />
          <YAxis yAxisId="events" tick={axis} allowDecimals={false} width={48} />
          <YAxis yAxisId="score" orientation="right" domain={[0, 1]} tick={axis} width={36} />
          <Tooltip formatter={tooltipValue} />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          <Bar yAxisId="events" dataKey="events" name="Events" fill="#9fb3f5" isAnimationActive={false} />
          <Line yAxisId="score" dataKey="meanScore" name="Mean risk" stroke="#c92a2a" strokeWidth={2} dot={false} connectNulls isAnimationActive={false} />
        </ComposedChart>
      </ResponsiveContainer>
    </figure>
  );
}

/** Tagged events per bucket, stacked by tag. */
export function TagsOverTimeChart({ data, tags, title }: { data: Record<string, string | number>[]; tags: string[]; title: string }) {
  return (
    <figure className="chart" aria-label={title} role="img" style={{ margin: 0 }}>
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid stroke="#eef0f3" vertical={false} />
          <XAxis dataKey="label" tick={axis} minTickGap={24} />
          <YAxis tick={axis} allowDecimals={false} width={48} />
          <Tooltip formatter={tooltipValue} />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          {tags.map((tag, i) => (
            <Bar key={tag} dataKey={tag} stackId="tags" fill={palette[i % palette.length]} isAnimationActive={false} />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </figure>
  );
}

/** Total events per tag over the range (the API gives counts per tag, not a mean score per tag). */
export function TagTotalsChart({ data, title }: { data: { tag: string; count: number }[]; title: string }) {
  return (
    <figure className="chart-small" aria-label={title} role="img" style={{ margin: 0 }}>
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} layout="vertical" margin={{ top: 4, right: 16, bottom: 0, left: 8 }}>
          <CartesianGrid stroke="#eef0f3" horizontal={false} />
          <XAxis type="number" tick={axis} allowDecimals={false} />
          <YAxis type="category" dataKey="tag" tick={axis} width={96} />
          <Tooltip formatter={tooltipValue} />
          <Bar dataKey="count" name="Events" fill="#3b5bdb" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </figure>
  );
}

/** Risk score of a device's events over time. */
export function ScoreOverTimeChart({ data, title }: { data: { label: string; score: number }[]; title: string }) {
  return (
    <figure className="chart-small" aria-label={title} role="img" style={{ margin: 0 }}>
      <ResponsiveContainer width="100%" height="100%">
        <LineChart data={data} margin={{ top: 8, right: 12, bottom: 0, left: 0 }}>
          <CartesianGrid stroke="#eef0f3" vertical={false} />
          <XAxis dataKey="label" tick={axis} minTickGap={24} />
          <YAxis domain={[0, 1]} tick={axis} width={36} />
          <Tooltip formatter={tooltipValue} />
          <Line dataKey="score" name="Risk score" stroke="#c92a2a" strokeWidth={2} dot={{ r: 2 }} isAnimationActive={false} />
        </LineChart>
      </ResponsiveContainer>
    </figure>
  );
}

const statusColors: Record<string, string> = { active: '#2b8a3e', deactivated: '#c92a2a', unregistered: '#adb5bd' };

export function StatusPie({ data, title }: { data: { status: string; count: number }[]; title: string }) {
  return (
    <figure className="chart-small" aria-label={title} role="img" style={{ margin: 0 }}>
      <ResponsiveContainer width="100%" height="100%">
        <PieChart>
          <Pie data={data} dataKey="count" nameKey="status" innerRadius="55%" outerRadius="85%" paddingAngle={1} isAnimationActive={false}>
            {data.map((d) => (
              <Cell key={d.status} fill={statusColors[d.status] ?? '#868e96'} />
            ))}
          </Pie>
          <Tooltip formatter={tooltipValue} />
          <Legend wrapperStyle={{ fontSize: 12 }} />
        </PieChart>
      </ResponsiveContainer>
    </figure>
  );
}
