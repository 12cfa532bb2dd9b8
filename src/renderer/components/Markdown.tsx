// Assistant text as GitHub-flavoured markdown. No raw HTML: the model's output is untrusted, so
// HTML in it is dropped rather than rendered.
import { memo, useRef, type ComponentPropsWithoutRef } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { remarkCitations } from '../lib/remark-citations';
import { CitationChip } from './CitationChip';
import { CopyButton } from './CopyButton';

/** A code block with a copy button: it copies what the block shows. */
function CodeBlock({ children, node: _node, ...rest }: ComponentPropsWithoutRef<'pre'> & { node?: unknown }) {
  const ref = useRef<HTMLPreElement>(null);
  return (
    <div className="code-block">
      <pre ref={ref} {...rest}>
        {children}
      </pre>
      <CopyButton read={() => ref.current?.textContent ?? ''} label="copy.code" testId="copy-code" />
    </div>
  );
}

const components: Components = {
  pre: CodeBlock,
  a: ({ href, children, node }) => {
    const cited = node?.properties.dataCiteFile;
    if (typeof cited === 'string') {
      return (
        <CitationChip file={cited} page={Number(node?.properties.dataCitePage)}>
          {children}
        </CitationChip>
      );
    }
    return (
      <a href={href} target="_blank" rel="noreferrer noopener">
        {children}
      </a>
    );
  },
};

const plugins = [remarkGfm, remarkCitations];

export const Markdown = memo(function Markdown({ text }: { text: string }) {
  return (
    <div className="markdown">
      <ReactMarkdown remarkPlugins={plugins} skipHtml components={components}>
        {text}
      </ReactMarkdown>
    </div>
  );
});
