/**
 * Keeps clicks, key presses, typing and submits away from React until Remix's router exists
 * (`holdEventsUntilRouter` says why).
 */
/**
 * The events that make React 18.3 hydrate a dehydrated root synchronously: react-dom's list
 * of discrete events it replays on hydration (`discreteReplayableEvents`).
 */
const SYNC_HYDRATING_EVENTS = [
  "mousedown",
  "mouseup",
  "touchcancel",
  "touchend",
  "touchstart",
  "auxclick",
  "dblclick",
  "pointercancel",
  "pointerdown",
  "pointerup",
  "dragend",
  "dragstart",
  "drop",
  "compositionend",
  "compositionstart",
  "keydown",
  "keypress",
  "keyup",
  "input",
  "textInput",
  "copy",
  "cut",
  "paste",
  "click",
  "change",
  "contextmenu",
  "reset",
  "submit",
];

/**
 * Keeps clicks, key presses, typing and submits away from React until Remix's router exists.
 *
 * With single fetch, RemixBrowser's first render starts decoding the server's state and
 * suspends the whole root on that promise, which settles a few milliseconds later. One of
 * these events in between makes React hydrate the document at once, synchronously; the root
 * suspends with no Suspense boundary possible above <html>, React's retry suspends again,
 * and React throws error #345 ("Root did not complete") and never hydrates the page.
 * Stopped on the window, before React's listeners on the document, the events still do what
 * the browser does with them (follow the link, type, submit the form), as they do during the
 * whole wait before hydration starts. The router is created right after the decoding.
 */
export function holdEventsUntilRouter(): void {
  const hold = (event: Event) => {
    if (!window.__remixRouter) {
      event.stopPropagation();
      return;
    }
    for (const type of SYNC_HYDRATING_EVENTS) window.removeEventListener(type, hold, true);
  };
  for (const type of SYNC_HYDRATING_EVENTS) window.addEventListener(type, hold, true);
}
