import type { ComponentChildren } from 'preact';

export function Loading(props: { what: string }) {
  return <p class="notice">Loading {props.what}…</p>;
}

export function Failure(props: { message: string; children?: ComponentChildren }) {
  return (
    <div class="notice notice-error" role="alert">
      <p>{props.message}</p>
      {props.children}
    </div>
  );
}
