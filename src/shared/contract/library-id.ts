// The personal library's id without zod: the renderer's first chunk (sidebar, project store) needs
// the value, and importing it from the contract's barrel pulled zod and every schema into that chunk.

/** The personal library's id wherever a library is named (`/v1/projects/personal/files`, hits). */
export const PERSONAL_LIBRARY = 'personal';
