// Conversation branches: a task's messages form a tree (regenerate and edit add siblings) and one
// path through it is active. A fork is shown as "< 2/3 >" on the message of the active path that
// has siblings.
import { z } from 'zod';
import { Id } from './entities';

export const BranchPoint = z.object({
  /** The message of the active path that has siblings. */
  message_id: Id,
  /** Its place among its siblings, 1-based, oldest first. */
  index: z.number().int().positive(),
  count: z.number().int().positive(),
  /** Every sibling, oldest first (message_id among them); switchBranch takes one of these. */
  siblings: z.array(Id),
});
export type BranchPoint = z.infer<typeof BranchPoint>;
