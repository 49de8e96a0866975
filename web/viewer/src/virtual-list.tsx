import type { ComponentChildren, VNode } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';

/**
 * A scrolling list that renders only the rows in view (plus a margin), so 20,000 runs cost as
 * much DOM as 30. Rows have a fixed height; the header stays at the top while scrolling.
 */
export function VirtualList<T>(props: {
  items: readonly T[];
  rowHeight: number;
  /** Height of the scrolling area when the rows need more. */
  maxHeight: number;
  header?: ComponentChildren;
  renderRow: (item: T, index: number) => VNode;
  label: string;
  /** Changing it scrolls back to the top (a new filter or sort). */
  resetKey?: string;
}) {
  const { items, rowHeight } = props;
  const container = useRef<HTMLElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewHeight, setViewHeight] = useState(props.maxHeight);

  useEffect(() => {
    if (container.current) container.current.scrollTop = 0;
    setScrollTop(0);
  }, [props.resetKey]);

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const observer = new ResizeObserver(() => setViewHeight(element.clientHeight));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const overscan = 8;
  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - overscan);
  const last = Math.min(items.length, Math.ceil((scrollTop + viewHeight) / rowHeight) + overscan);
  const rows: VNode[] = [];
  for (let index = first; index < last; index++) {
    rows.push(
      <div class="vrow" key={index} style={{ top: `${index * rowHeight}px`, height: `${rowHeight}px` }}>
        {props.renderRow(items[index]!, index)}
      </div>,
    );
  }

  return (
    <section
      ref={container}
      class="vlist"
      style={{ maxHeight: `${props.maxHeight}px` }}
      onScroll={(event) => setScrollTop((event.currentTarget as HTMLElement).scrollTop)}
      aria-label={props.label}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: the scrolling region must be reachable by keyboard.
      tabIndex={0}
    >
      {props.header}
      <div class="vlist-body" style={{ height: `${items.length * rowHeight}px` }}>
        {rows}
      </div>
    </section>
  );
}
