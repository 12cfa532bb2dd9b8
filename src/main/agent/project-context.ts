// The project block of the system prompt: the project's standing instructions, which are
// the person's own words (so they are instructions, unlike web content), and what its libraries hold.

export interface ProjectFacts {
  name: string;
  instructions: string;
  /** The files the task sees in each library (task paths, with a short note such as "12 pages"). */
  library: { taskPath: string; note: string | null }[];
  /** Files beyond those listed. */
  moreFiles: number;
}

/** At most this many library files are named in the prompt; the rest are found with search_library. */
export const PROMPT_LIBRARY_FILES = 40;

export function projectForPrompt(facts: ProjectFacts | null, library: ProjectFacts['library'] = [], moreFiles = 0): string {
  const parts: string[] = [];
  if (facts) {
    parts.push(`## Project: ${facts.name}`);
    const instructions = facts.instructions.trim();
    parts.push(
      instructions
        ? `This task belongs to the project "${facts.name}". The person's standing instructions for every task of this project follow; ` +
            `they are the person's own words: follow them as you would their messages.\n\n${instructions}`
        : `This task belongs to the project "${facts.name}".`,
    );
  }
  const files = facts ? facts.library : library;
  const more = facts ? facts.moreFiles : moreFiles;
  if (files.length > 0) {
    parts.push(
      [
        '## Library',
        'These files are shared with the task, read-only, extracted page by page: library/project/ is the project\'s library, ' +
          'library/personal/ the person\'s own across projects. Find passages with search_library; read a page with ' +
          'read path="library/…" pages="N"; grep them with path="library/project" or "library/personal". ' +
          'When you use a library page, cite it: "来源：file.pdf 第 N 页" in Chinese, "Source: file.pdf, p. N" in English.',
        ...files.map((f) => `- \`${f.taskPath}\`${f.note ? ` (${f.note})` : ''}`),
        ...(more > 0 ? [`- … and ${more} more (search_library finds them)`] : []),
      ].join('\n'),
    );
  }
  return parts.join('\n\n');
}
