/** What a function needs of Netlify's context (the local server gives the same). */
export interface RequestContext {
  ip: string;
  /**
   * Netlify: keeps the function working on `promise` after the answer is sent.
   * The local server has none (its own worker delivers the notifications).
   */
  waitUntil?: (promise: Promise<unknown>) => void;
}

/** A function's default export: what Netlify calls, and what the local server routes to. */
export type Handler = (request: Request, context: RequestContext) => Promise<Response>;
