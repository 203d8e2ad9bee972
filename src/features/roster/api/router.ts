import { router } from "../../../server/trpc/init";
import { upsertBankAccountsProcedure } from "./bank-accounts";
import { upsertPropertiesProcedure } from "./properties";
import { upsertUnitsProcedure } from "./units";

export const rosterRestRouter = router({
  bankAccounts: upsertBankAccountsProcedure,
  properties: upsertPropertiesProcedure,
  units: upsertUnitsProcedure,
});
