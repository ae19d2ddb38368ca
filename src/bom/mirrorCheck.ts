// `bom --mirror-check`: per item, whether fetching it leaves the site (siteHosts.ts): a URL on a host of the
// site, a file:// URL or the cluster's API server stays; an image stays when containerd's first host is in the
// site (its fallback, the registry's `server`, is named when it is not); a package comes from whichever source
// has it (the repositories listed, or the node image's own sources, which the render does not set); an item
// the node computes at run time cannot be told.
import type { BomItem, MachineDeploymentBom } from './billOfMaterials.ts';
import { hostOf, type SiteHost } from './siteHosts.ts';

export type Verdict = 'site' | 'leaves' | 'image-sources' | 'unknown' | 'node';

export interface ItemVerdict {
  verdict: Verdict;
  note: string;
}

export function checkItem(item: BomItem, site: readonly SiteHost[], bom: MachineDeploymentBom): ItemVerdict {
  const inSite = (url: string) => url.startsWith('file:///') || site.some((s) => s.host === hostOf(url));
  switch (item.kind) {
    case 'unresolved':
      return { verdict: 'unknown', note: 'the node computes it at run time' };
    case 'node-local':
      return { verdict: 'node', note: "the node's own service" };
    case 'api':
      return { verdict: 'site', note: "the cluster's API server" };
    case 'package':
      return { verdict: 'image-sources', note: `from ${(item.sources ?? []).join(' or ')}` };
    case 'image': {
      const hosts = item.hosts ?? [];
      const first = hosts[0];
      if (first === undefined) return { verdict: 'unknown', note: 'no host known' };
      if (!inSite(first.url)) return { verdict: 'leaves', note: `containerd contacts ${first.url} first` };
      const fallback = hosts.find((h) => !inSite(h.url));
      return {
        verdict: 'site',
        note:
          fallback === undefined
            ? `from ${first.url}`
            : `from ${first.url}; containerd falls back to ${fallback.url} when it fails`,
      };
    }
    default: {
      if (inSite(item.name))
        return { verdict: 'site', note: `${hostOf(item.name) ?? 'file'} is ${describe(site, item.name)}` };
      if (bom.server !== undefined && hostOf(item.name) === hostOf(bom.server))
        return { verdict: 'site', note: "the cluster's API server" };
      return { verdict: 'leaves', note: `${hostOf(item.name) ?? item.name} is none of the config's mirrors` };
    }
  }
}

function describe(site: readonly SiteHost[], url: string): string {
  const s = site.find((x) => x.host === hostOf(url));
  return s === undefined ? 'a local file' : `in the site (${s.from})`;
}

/** Whether the check fails: something leaves the site or cannot be told. */
export const failsMirrorCheck = (v: ItemVerdict) => v.verdict === 'leaves' || v.verdict === 'unknown';
