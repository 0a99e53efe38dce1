// File names for objects: readable (Chinese kept as is), safe on every filesystem (no reserved characters
// or names, no trailing dot or space, lower case for case-insensitive disks, at most 64 characters).
const UNSAFE = /[<>:"/\\|?*#^[\]%\p{Cc}\p{Cf}]/gu;
/** Windows device names, reserved whatever follows their first dot. */
const RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\.|$)/;
const MAX_CHARS = 64;

/** The name's part of a slug; 'object' when nothing of the name survives. */
export function baseSlug(name: string): string {
  const cleaned = name
    .normalize('NFC')
    .toLowerCase()
    .replace(UNSAFE, ' ')
    .trim()
    .replace(/[\s.]+$/u, '')
    .replace(/^[\s.]+/u, '')
    .replace(/\s+/gu, '-')
    .replace(/-{2,}/g, '-');
  const cut = [...cleaned]
    .slice(0, MAX_CHARS)
    .join('')
    .replace(/[-.]+$/u, '');
  if (cut === '') return 'object';
  return RESERVED.test(cut) ? `_${cut}` : cut;
}

/** The slug of an object whose base slug is taken by another: the id makes it unique. */
export const disambiguated = (base: string, objectId: string): string =>
  `${base}-${objectId.replace(/^obj_/, '').toLowerCase()}`;
