import { router } from "../../server/trpc/init";
import { upsertBankAccountsProcedure } from "./api/bank-accounts";
import { upsertPropertiesProcedure } from "./api/properties";
import { upsertUnitsProcedure } from "./api/units";

export const rosterRestRouter = router({
  bankAccounts: upsertBankAccountsProcedure,
  properties: upsertPropertiesProcedure,
  units: upsertUnitsProcedure,
});
