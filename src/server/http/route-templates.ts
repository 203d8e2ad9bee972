import type { AnyRouter } from "@trpc/server";
import type { Meta } from "../trpc/init";

/**
 * The route template a request matched (`/partners/{owner_slug}/prospects`), from the procedures'
 * `openapi` meta, for traces and metrics (decisions §14: never a slug or an id). Built on first use:
 * a gateway that never asks pays nothing.
 */
export function routeTemplatesOf(router: AnyRouter): (method: string, path: string) => string | undefined {
  let routes: { method: string; template: string; pattern: RegExp; parameters: number }[] | undefined;
  return (method, path) => {
    routes ??= Object.values(router._def.procedures as Record<string, { _def: { meta?: Meta } }>).flatMap(({ _def }) => {
      const openapi = _def.meta?.openapi;
      if (!openapi) return [];
      const template = openapi.path.replace(/\/+$/, "") || "/";
      const pattern = new RegExp(
        `^${template
          .split(/\{[^}]+\}/)
          .map(escapeRegExp)
          .join("[^/]+")}/?$`,
      );
      return [{ method: openapi.method.toUpperCase(), template, pattern, parameters: template.split("{").length }];
    });
    // A literal segment wins over a parameter (`/prospects/batch` before `/prospects/{id}`).
    routes.sort((a, b) => a.parameters - b.parameters);
    return routes.find((route) => route.method === method && route.pattern.test(path))?.template;
  };
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
