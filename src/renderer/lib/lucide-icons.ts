// Lucide icon nodes for the preview, loaded on first use as one lazy chunk (the whole set is large;
// a deck without icons never loads it). The .pptx draws from the same package data in main.
import { useEffect, useState } from 'react';
import type { IconNode } from '../../shared/specs/icon-svg';

let loading: Promise<Record<string, IconNode>> | undefined;

function loadIconNodes(): Promise<Record<string, IconNode>> {
  loading ??= import('lucide-static/icon-nodes.json').then((m) => m.default as unknown as Record<string, IconNode>);
  return loading;
}

/** The icon's node once loaded (undefined while loading or for a name Lucide does not have). */
export function useIconNode(name: string): IconNode | undefined {
  const [node, setNode] = useState<IconNode | undefined>(undefined);
  useEffect(() => {
    let live = true;
    void loadIconNodes().then((all) => {
      if (live) setNode(all[name]);
    });
    return () => {
      live = false;
    };
  }, [name]);
  return node;
}
