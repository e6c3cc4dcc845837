/**
 * Plot colours come from the page's CSS variables (app.css), read from the plot's own element, so
 * a plot follows the dark and light themes like the rest of the page. A canvas cannot use CSS
 * variables itself: the colours are read again whenever the theme may have changed (the system
 * colour scheme, or a theme switch changing an attribute of <html> or <body>).
 */
export interface PlotColours {
  axis: string;
  grid: string;
  /** One colour per series, from the CSS variables the plot names. */
  series: string[];
}

export function readColours(element: Element, seriesVars: readonly string[]): PlotColours {
  const style = getComputedStyle(element);
  const read = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  return {
    axis: read('--muted', 'gray'),
    grid: read('--hairline', 'rgba(128, 128, 128, 0.2)'),
    series: seriesVars.map((name) => read(name, 'currentColor')),
  };
}

/** Calls `changed` whenever the theme may have changed; returns the stop. */
export function watchTheme(changed: () => void): () => void {
  const scheme = window.matchMedia('(prefers-color-scheme: dark)');
  scheme.addEventListener('change', changed);
  const observer = new MutationObserver(changed);
  for (const element of [document.documentElement, document.body]) {
    observer.observe(element, { attributes: true, attributeFilter: ['class', 'data-theme', 'style'] });
  }
  return () => {
    scheme.removeEventListener('change', changed);
    observer.disconnect();
  };
}
