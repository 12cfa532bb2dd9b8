// Tenant and user ids come from a platform's token and become folder names under the storage root,
// so they obey the same rule as every other Folio id: 1-64 of A-Z a-z 0-9 _ - (no dots, no
// separators, nothing a shell or a path could misread).
import { Id } from '../../shared/contract/entities';

export function isScopeId(value: unknown): value is string {
  return Id.safeParse(value).success;
}
