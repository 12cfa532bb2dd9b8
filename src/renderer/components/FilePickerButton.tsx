// A button that opens the system's file picker and hands over the files picked: the hidden
// <input type=file> behind it, in one place (the composer's attach, a task's and a library's Add, a template's import).
import { useRef, type ReactNode } from 'react';

interface FilePickerButtonProps {
  /** Called with the files picked (never empty; one file unless `multiple`). */
  onPick: (files: File[]) => void;
  className: string;
  disabled?: boolean;
  /** For an icon-only button: its name for screen readers and its tooltip. */
  label?: string;
  /** The picker's filter (extensions or MIME types). */
  accept?: string;
  multiple?: boolean;
  testId: string;
  /** The hidden input's test id: e2e tests hand it files directly. */
  inputTestId: string;
  children: ReactNode;
}

export function FilePickerButton({ onPick, className, disabled = false, label, accept, multiple = true, testId, inputTestId, children }: FilePickerButtonProps) {
  const inputRef = useRef<HTMLInputElement>(null);
  return (
    <>
      <button type="button" className={className} onClick={() => inputRef.current?.click()} disabled={disabled} aria-label={label} title={label} data-testid={testId}>
        {children}
      </button>
      <input
        ref={inputRef}
        type="file"
        accept={accept}
        multiple={multiple}
        hidden
        onChange={(e) => {
          const picked = Array.from(e.target.files ?? []);
          // Picking the same file again must fire change again.
          e.target.value = '';
          if (picked.length > 0) onPick(picked);
        }}
        data-testid={inputTestId}
      />
    </>
  );
}
