"use client";
import { createContext, type ReactNode, useContext } from "react";
import type { Permission } from "@/features/console/permissions";

const PermissionsContext = createContext<readonly Permission[]>([]);

/**
 * The signed-in role's permissions, computed once on the server by the layout with the same
 * `permissionsOf` that `consoleRouter.me` answers with. Hiding is a courtesy: every procedure
 * checks its own permission (staffProcedure).
 */
export function PermissionsProvider({ permissions, children }: { permissions: readonly Permission[]; children: ReactNode }) {
  return <PermissionsContext.Provider value={permissions}>{children}</PermissionsContext.Provider>;
}

export function useCan(permission: Permission): boolean {
  return useContext(PermissionsContext).includes(permission);
}

/** Renders its children only for a role holding `permission`. */
export function Can({ permission, children }: { permission: Permission; children: ReactNode }) {
  return useCan(permission) ? children : null;
}
