// Flow: a deck is rendered, the person selects slide 3 in the preview and asks for a change; the
// agent gets the slide ids with the instruction, rewrites slide 3 and renders a new version in which
// only slide 3's parts differ; the versions list shows both with slide 3 changed, and going back to
// the first version makes a third.
import JSZip from 'jszip';
import { taskWithRenderedDeck, writeAndRenderDeck } from './support/deck-task';
import { expect, test } from './support/fixtures';
import { recordedRequests, scriptModel } from './support/fake-model';
import { expectRunsDone } from './support/flows';
import { type FolioServer } from './support/folio-server';
import { expandedToolResult } from './support/tool-cards';

const slides = [
  { layout: 'title' },
  { layout: 'bullets', title: 'Sample size grew to 42', bullets: ['Twelve sites', 'Three seasons'], notes: 'Source: notes.pdf p. 1' },
  { layout: 'bullets', title: 'Response rate rose every year', bullets: ['2022: 64%', '2023: 72%', '2024: 81%'] },
  { layout: 'chart', title: 'Samples per year', chart: { type: 'column', categories: ['2022', '2023', '2024'], series: [{ name: 'Samples', values: [18, 30, 42] }] } },
  { layout: 'cards', title: 'Methods', cards: [{ title: 'Survey', icon: 'clipboard' }, { title: 'Sensors', icon: 'radio' }] },
  { layout: 'closing' },
];
const deck = { title: 'Field Study Results', slides };
// What the fake model writes back after the change: the ids render_deck gave, slide 3 now a chart.
const edited = {
  title: 'Field Study Results',
  slides: slides.map((s, i) =>
    i === 2
      ? { id: 's3', layout: 'chart', title: 'Response rate rose every year', chart: { type: 'line', categories: ['2022', '2023', '2024'], series: [{ name: 'Response rate', values: [64, 72, 81] }], unit: '%' } }
      : { id: `s${i + 1}`, ...s },
  ),
};

async function pptxParts(folio: FolioServer, taskId: string, path: string): Promise<Map<string, Buffer>> {
  const response = await fetch(`${folio.origin}/v1/tasks/${taskId}/files/${path}`, { headers: { Authorization: `Bearer ${folio.token}` } });
  expect(response.ok).toBe(true);
  const zip = await JSZip.loadAsync(Buffer.from(await response.arrayBuffer()));
  const parts = new Map<string, Buffer>();
  for (const [name, entry] of Object.entries(zip.files)) if (!entry.dir) parts.set(name, await entry.async('nodebuffer'));
  return parts;
}

test('selecting slide 3 and asking for a change gives a version where only slide 3 differs', async ({ page, folio }) => {
  const taskId = await taskWithRenderedDeck(page, folio, deck, 'field-study');
  await page.locator('[data-testid="artifact-item"][data-path="artifacts/field-study.pptx"]').click();
  const preview = page.getByTestId('artifact-preview');
  const thumbs = preview.getByTestId('slide-thumb');
  await expect(thumbs).toHaveCount(6);
  await expect(thumbs.nth(2)).toHaveAttribute('data-slide-id', 's3');

  // Select slide 3 and say what should change.
  await preview.getByTestId('slide-select').nth(2).check();
  const bar = preview.getByTestId('slide-change-bar');
  await expect(bar).toContainText('Slide 3');
  await scriptModel(writeAndRenderDeck(edited, 'field-study', 'Slide 3 is now a chart.'));
  await bar.getByTestId('slide-change-input').fill('make this a chart');
  await bar.getByTestId('slide-change-send').click();
  await expectRunsDone(page, 2);
  await expect(bar).toHaveCount(0);

  // The model was told which slide, of which spec, and to leave the rest alone.
  const chats = (await recordedRequests()).filter((r) => r.path === '/v1/chat/completions');
  const asked = chats.map((r) => JSON.stringify(r.body)).find((b) => b.includes('make this a chart')) ?? '';
  expect(asked).toContain('Change only slide s3 (slide 3) of work/deck.json (rendered as artifacts/field-study.pptx): make this a chart');
  expect(asked).toContain('keep every other slide and every slide id exactly as it is');
  await expect(await expandedToolResult(page.getByTestId('chat-view').locator('[data-testid="tool-card"][data-tool-name="render_deck"]').last())).toContainText(
    'changed s3 (slide 3); 5 slides unchanged',
  );

  // Part by part, only slide 3's parts (and the package's list of parts and its modified time) differ.
  const before = await pptxParts(folio, taskId, 'artifacts/field-study.pptx');
  const after = await pptxParts(folio, taskId, 'artifacts/field-study-v2.pptx');
  const names = [...new Set([...before.keys(), ...after.keys()])].sort();
  const differing = names.filter((n) => !(before.get(n)?.equals(after.get(n) ?? Buffer.alloc(0)) ?? false));
  const slide3 = ['ppt/slides/slide3.xml', 'ppt/slides/_rels/slide3.xml.rels', 'ppt/charts/chart-s3-1.xml', 'ppt/charts/_rels/chart-s3-1.xml.rels', 'ppt/embeddings/Microsoft_Excel_Worksheet-s3-1.xlsx'];
  expect(differing.filter((n) => !slide3.includes(n) && n !== '[Content_Types].xml' && n !== 'docProps/core.xml')).toEqual([]);
  expect(differing).toEqual(expect.arrayContaining(slide3));
  for (const n of [1, 2, 4, 5, 6]) expect(differing).not.toContain(`ppt/slides/slide${n}.xml`);

  // The versions of the deck: two, slide 3 changed in the second, drawn before and after.
  const versions = preview.getByTestId('deck-versions');
  await expect(preview).toHaveAttribute('data-path', 'artifacts/field-study-v2.pptx');
  await expect(versions.getByTestId('deck-version')).toHaveCount(2);
  const v2 = versions.locator('[data-testid="deck-version"][data-version="2"]');
  await expect(v2.getByTestId('version-changed-slide')).toHaveCount(1);
  await expect(v2.getByTestId('version-changed-slide')).toHaveAttribute('data-slide-id', 's3');
  await expect(v2.getByTestId('version-changed-slide')).toHaveAttribute('data-change', 'changed');
  const row = versions.locator('[data-testid="version-diff-row"][data-slide-id="s3"]');
  await expect(row.getByTestId('slide-title')).toHaveText(['Response rate rose every year', 'Response rate rose every year']);
  await expect(row.locator('.version-diff-cell').nth(1).locator('svg')).not.toHaveCount(0);

  // Going back to the first version renders it again as the newest; the others stay.
  await versions.locator('[data-testid="deck-version"][data-version="1"]').getByTestId('version-restore').click();
  await expect(page.locator('[data-testid="artifact-item"][data-path="artifacts/field-study-v3.pptx"]')).toHaveCount(1, { timeout: 60_000 });
  await expect(preview).toHaveAttribute('data-path', 'artifacts/field-study-v3.pptx');
  await expect(versions.getByTestId('deck-version')).toHaveCount(3);
  await expect(versions.locator('[data-testid="deck-version"][data-version="3"]')).toContainText('restored from field-study.pptx');
  await expect(page.locator('[data-testid="artifact-item"][data-path="artifacts/field-study-v2.pptx"]')).toHaveCount(1);
});
