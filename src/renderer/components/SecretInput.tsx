// The one field a key or token is typed into: masked, never autocompleted or spell-checked (a
// spell-checker may send what it checks elsewhere), and cleared by its owner once stored.
import type { ComponentProps } from 'react';

type Props = Omit<ComponentProps<'input'>, 'type' | 'onChange' | 'value' | 'autoComplete' | 'spellCheck'> & {
  value: string;
  onValue: (value: string) => void;
};

export function SecretInput({ value, onValue, className, ...rest }: Props) {
  return (
    <input
      {...rest}
      className={className ?? 'input'}
      type="password"
      autoComplete="off"
      spellCheck={false}
      value={value}
      onChange={(e) => onValue(e.target.value)}
    />
  );
}
