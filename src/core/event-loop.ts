/**
 * Gives the event loop a turn: requests that arrived meanwhile are read before the caller goes on.
 * For work that runs a long while on the thread that answers requests, a page at a time (a long
 * PDF's layout took a second at a stretch, during which the server answered nothing).
 */
export const giveTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
