/**
 * A complete prospect body (every field the standard create payload needs), shared by the tests
 * and the benchmark. No imports: cheap to load anywhere.
 */
export function completeProspectFields(source: string, sourceProspectId: string, building = "b1", unit = "u1") {
  return {
    source,
    source_prospect_id: sourceProspectId,
    terms_accepted_at: "2026-11-01T10:00:00Z",
    email: "Renter@Example.com",
    phone: "5125550123",
    first_name: "Rita",
    last_name: "Renter",
    birthdate: "1990-04-02",
    lease_start_date: "2026-12-01",
    lease_end_date: "2027-11-30",
    monthly_rent_cents: 150000,
    deposit_amount_cents: 150000,
    screening_result: "approved",
    employment_status: "employed",
    yearly_income: 85000,
    has_ssn: true,
    social_security_number: "123-45-6789",
    education_level: "bachelor",
    citizenship: "us_citizen",
    property: { external_system_id: building },
    unit: { external_system_id: unit },
  };
}
