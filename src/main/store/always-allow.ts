// "Always allow this tool": the full names of the tools a person allowed in every task, kept under
// one settings key. Only names live here; which tools may be always allowed is the approval
// policy's decision (from traits), checked when a grant is given and again when one is read.
import { z } from 'zod';
import type { SettingsRepo } from './settings-repo';

const KEY = 'always_allow';
const Names = z.array(z.string());

/** The always-allowed tool names; a damaged value counts as none (asking again is the safe side). */
export function alwaysAllowedTools(settings: SettingsRepo): string[] {
  const parsed = Names.safeParse(settings.get<unknown>(KEY));
  return parsed.success ? parsed.data : [];
}

export function isAlwaysAllowed(settings: SettingsRepo, toolName: string): boolean {
  return alwaysAllowedTools(settings).includes(toolName);
}

/** Adds or removes one tool; the stored list stays sorted and without repeats. */
export function setAlwaysAllowed(settings: SettingsRepo, toolName: string, allowed: boolean): void {
  const rest = alwaysAllowedTools(settings).filter((name) => name !== toolName);
  const next = allowed ? [...rest, toolName].sort() : rest;
  settings.set(KEY, next.length > 0 ? next : undefined);
}
