// A handful of 16px stroke icons, inline so the app needs no icon font or extra request.
const paths = {
  plus: 'M8 3v10M3 8h10',
  search: 'M7 12A5 5 0 1 0 7 2a5 5 0 0 0 0 10zM14 14l-3.5-3.5',
  settings:
    'M8 10.5a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5zM13 8a5 5 0 0 0-.1-1l1.4-1.1-1.3-2.3-1.7.6a5 5 0 0 0-1.7-1L9.3 1.5H6.7l-.3 1.7a5 5 0 0 0-1.7 1L3 3.6 1.7 5.9 3.1 7a5 5 0 0 0 0 2l-1.4 1.1L3 12.4l1.7-.6a5 5 0 0 0 1.7 1l.3 1.7h2.6l.3-1.7a5 5 0 0 0 1.7-1l1.7.6 1.3-2.3L12.9 9c.1-.3.1-.7.1-1z',
  more: 'M3.5 8h.01M8 8h.01M12.5 8h.01',
  edit: 'M11 2.5l2.5 2.5L6 12.5H3.5V10z',
  trash: 'M3 4.5h10M6.5 4.5V3h3v1.5M4.5 4.5l.5 9h6l.5-9',
  check: 'M3 8.5l3 3 7-7',
  close: 'M4 4l8 8M12 4l-8 8',
  upload: 'M8 11V3M5 6l3-3 3 3M3 13h10',
  download: 'M8 3v8M5 8l3 3 3-3M3 13h10',
  file: 'M4 1.5h5l3 3v10H4zM9 1.5v3h3',
  library: 'M2.5 2.5h3v11h-3zM6.5 2.5h3v11h-3zM10.3 3.3l2.6-.8 2.6 10.4-2.6.8z',
  back: 'M10 3L5 8l5 5',
  stop: 'M4.5 4.5h7v7h-7z',
  send: 'M2.5 8h10M8.5 4l4 4-4 4',
  play: 'M5 3.5l7 4.5-7 4.5z',
  chevron: 'M6 4l4 4-4 4',
  alert: 'M8 2l6.5 11.5h-13zM8 6.5v3M8 11.5h.01',
  tool: 'M10.5 2.5a3 3 0 0 0-3.3 4L2.5 11.2l2.3 2.3 4.7-4.7a3 3 0 0 0 4-3.3L11.7 7.3 9.5 7l-.3-2.2z',
  grip: 'M6 4h.01M6 8h.01M6 12h.01M10 4h.01M10 8h.01M10 12h.01',
  regenerate: 'M13 8a5 5 0 1 1-1.5-3.6M13 2.5v2.5h-2.5',
  sidebar: 'M2.5 3h11v10h-11zM6 3v10',
  panel: 'M2.5 3h11v10h-11zM10 3v10',
  copy: 'M5.5 5.5h8v8h-8zM3.5 10.5h-1v-8h8v1',
  paperclip: 'M13 7.5l-5.2 5.2a3.2 3.2 0 0 1-4.5-4.5L8.8 2.7a2.1 2.1 0 0 1 3 3L6.3 11.2a1 1 0 0 1-1.5-1.5l4.9-4.9',
  keyboard: 'M1.5 4h13v8h-13zM4 6.5h.01M6.5 6.5h.01M9 6.5h.01M11.5 6.5h.01M5 9.5h6',
} as const;

export type IconName = keyof typeof paths;

export function Icon({ name, size = 16, className }: { name: IconName; size?: number; className?: string }) {
  return (
    <svg
      className={className ? `icon ${className}` : 'icon'}
      width={size}
      height={size}
      viewBox="0 0 16 16"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.5"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      data-icon={name}
    >
      <path d={paths[name]} />
    </svg>
  );
}
