/**
 * One element's full-screen state for the life of the component that creates it: whether that
 * element is the one shown full screen (the browser can also leave full screen by itself, on
 * Escape), and a toggle that enters or leaves it.
 */
export class Fullscreen {
  /** The element to show full screen; bound by the component that renders it. */
  element = $state<HTMLElement>();
  active = $state(false);
  readonly #refused: () => void;

  /** `refused` runs when the browser will not go full screen. */
  constructor(refused: () => void) {
    this.#refused = refused;
    $effect(() => {
      const onFullscreen = () =>
        (this.active = document.fullscreenElement !== null && document.fullscreenElement === this.element);
      document.addEventListener('fullscreenchange', onFullscreen);
      return () => document.removeEventListener('fullscreenchange', onFullscreen);
    });
  }

  async toggle(): Promise<void> {
    if (document.fullscreenElement) await document.exitFullscreen();
    else await this.element?.requestFullscreen().catch(() => this.#refused());
  }
}
