// The one hidden file input: the button and its input render together, and no other component
// carries an <input type="file"> of its own.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { FilePickerButton } from './FilePickerButton';

const sources = import.meta.glob<string>(['../**/*.tsx', '!../**/*.test.tsx'], { query: '?raw', import: 'default', eager: true });

describe('FilePickerButton', () => {
  it('renders the button with its label and a hidden multi-file input', () => {
    const html = renderToStaticMarkup(
      <FilePickerButton className="icon-btn" label="Attach" onPick={() => undefined} testId="pick" inputTestId="pick-input">
        <span />
      </FilePickerButton>,
    );
    expect(html).toContain('<button type="button" class="icon-btn" aria-label="Attach" title="Attach" data-testid="pick">');
    expect(html).toMatch(/<input type="file" multiple="" hidden="" data-testid="pick-input"\/>/u);
  });

  it('is the only component with a file input', () => {
    const withInput = Object.entries(sources)
      .filter(([, text]) => /type="file"/u.test(text))
      .map(([path]) => path);
    expect(withInput).toEqual(['./FilePickerButton.tsx']);
  });
});
