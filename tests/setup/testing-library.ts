// Component tests (happy-dom) wait for what they assert with Testing Library's findBy*/waitFor, whose
// default bound of 1 s is a speed, not a hang: beside a second `npm test` (CI's machine is shared) a
// render that takes 2 s is still right. The bound is raised for every file that has a DOM.
if (typeof window !== 'undefined') {
  const { configure } = await import('@testing-library/dom');
  configure({ asyncUtilTimeout: 20_000 });
}

export {};
