export interface CardProps {
  id: string;
  /** The attribute that carries `id`: `data-card` unless said otherwise. */
  idAttribute?: 'data-card' | 'data-metric';
  label: string;
  value: string;
  /** A line, or its parts: those that are null are left out, the rest joined with " · ". */
  detail?: string | null | (string | null)[];
  tone?: string;
}

/** One headline number with its label: the dashboard's summary, a run's metrics, a comparison's counts. */
export function Card(props: CardProps) {
  const detail = Array.isArray(props.detail)
    ? props.detail.filter((part) => part !== null).join(' · ')
    : props.detail;
  const idAttribute = { [props.idAttribute ?? 'data-card']: props.id };
  return (
    <div class={props.tone ? `card card-${props.tone}` : 'card'} {...idAttribute}>
      <div class="card-label">{props.label}</div>
      <div class="card-value">{props.value}</div>
      {detail ? <div class="card-detail">{detail}</div> : null}
    </div>
  );
}
