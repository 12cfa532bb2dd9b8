// "Always allow this tool": the full names of the tools a person allowed in every task, kept under
// one settings key. Only names live here; which tools may be always allowed is the approval
// policy's decision (from traits), checked when a grant is given and again when one is read.
import { z } from 'zod';
import type { AsyncRepo } from './port';
import type { SettingsRepo } from './settings-repo';

type Settings = AsyncRepo<SettingsRepo>;

const KEY = 'always_allow';
const Names = z.array(z.string());

/** The always-allowed tool names; a damaged value counts as none (asking again is the safe side). */
export async function alwaysAllowedTools(settings: Settings): Promise<string[]> {
  const parsed = Names.safeParse(await settings.get(KEY));
  return parsed.success ? parsed.data : [];
}

export async function isAlwaysAllowed(settings: Settings, toolName: string): Promise<boolean> {
  return (await alwaysAllowedTools(settings)).includes(toolName);
}

/** Adds or removes one tool; the stored list stays sorted and without repeats. Call it in a transaction (read, then write). */
export async function setAlwaysAllowed(settings: Settings, toolName: string, allowed: boolean): Promise<void> {
  const rest = (await alwaysAllowedTools(settings)).filter((name) => name !== toolName);
  const next = allowed ? [...rest, toolName].sort() : rest;
  await settings.set(KEY, next.length > 0 ? next : undefined);
}
