import { describe, expect, it } from 'vitest';
import { formatSlideRequest, parseSlideRequest } from './slide-request';

describe('slide requests read back', () => {
  it('gives the slide numbers and the instruction of a request with a spec file', () => {
    const text = formatSlideRequest({ artifact_path: 'artifacts/t-v2.pptx', spec_path: 'work/t.json', slides: [{ id: 's3', number: 3 }, { id: 's5', number: 6 }] }, ' make this a chart ');
    expect(parseSlideRequest(text)).toEqual({ slides: [3, 6], instruction: 'make this a chart' });
  });

  it('keeps an instruction of several lines, colons and Chinese as written', () => {
    const instruction = '改成图表：\n\nEdit only 这一页';
    const text = formatSlideRequest({ artifact_path: 'artifacts/t.pptx', spec_path: null, slides: [{ id: 'intro-1', number: 1 }] }, instruction);
    expect(parseSlideRequest(text)).toEqual({ slides: [1], instruction });
  });

  it('leaves every other message alone', () => {
    expect(parseSlideRequest('Change only slide 3 please')).toBeNull();
    expect(parseSlideRequest('hello')).toBeNull();
  });
});
