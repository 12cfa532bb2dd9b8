import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** A window whose width the test sets; the media query's change event is delivered only when the test says. */
function fakeWindow() {
  const media = { matches: false };
  vi.stubGlobal('window', { matchMedia: () => media });
  return media;
}

async function freshStore() {
  vi.resetModules();
  return import('./layout-store');
}

describe('the right panel across the narrow width', () => {
  beforeEach(() => vi.unstubAllGlobals());
  afterEach(() => vi.unstubAllGlobals());

  it('opens the drawer, not closes the wide panel, when toggled before the page heard of the resize', async () => {
    const media = fakeWindow();
    const { useLayout, panelShown } = await freshStore();
    expect(panelShown(useLayout.getState())).toBe(true);

    // Narrowed, and the toggle pressed before the media query's change event (it comes with a frame).
    media.matches = true;
    useLayout.getState().togglePanel();
    expect(useLayout.getState().narrow).toBe(true);
    expect(useLayout.getState().drawerOpen).toBe(true);
    // The event arrives late: the drawer just opened stays open.
    useLayout.getState().setNarrow(true);
    expect(panelShown(useLayout.getState())).toBe(true);

    // Wide again: the panel is beside the chat, as before.
    media.matches = false;
    useLayout.getState().setNarrow(false);
    expect(useLayout.getState().panelOpen).toBe(true);
    expect(panelShown(useLayout.getState())).toBe(true);
  });

  it('closes the wide panel when toggled while the window is wide, and keeps it closed across the narrow width', async () => {
    const media = fakeWindow();
    const { useLayout, panelShown } = await freshStore();
    useLayout.getState().togglePanel();
    expect(panelShown(useLayout.getState())).toBe(false);
    media.matches = true;
    useLayout.getState().setNarrow(true);
    media.matches = false;
    useLayout.getState().setNarrow(false);
    expect(panelShown(useLayout.getState())).toBe(false);
  });

  it('closes an open drawer when the window becomes wide', async () => {
    const media = fakeWindow();
    media.matches = true;
    const { useLayout } = await freshStore();
    useLayout.getState().togglePanel();
    expect(useLayout.getState().drawerOpen).toBe(true);
    media.matches = false;
    useLayout.getState().setNarrow(false);
    expect(useLayout.getState().drawerOpen).toBe(false);
  });
});
