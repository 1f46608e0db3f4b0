// Ambient (no import or export here): the build's virtual modules.
declare module 'virtual:page-script' {
  /** src/scripts/site.ts as one minified classic script (src/integrations/page-script.ts). */
  export const code: string;
  /** Its Content-Security-Policy hash, `sha256-…`. */
  export const hash: `sha256-${string}`;
}

declare module 'virtual:page-script/panel' {
  /** src/scripts/panel.ts, the team's pages' script, as one minified classic script. */
  export const code: string;
  /** Its Content-Security-Policy hash, `sha256-…`. */
  export const hash: `sha256-${string}`;
}

declare module 'virtual:near-screen/*' {
  /** Where the module is served: written on its element as `data-near-screen` (src/integrations/near-screen-module.ts). */
  export const url: string;
}
