/** decisions §10 Links: a link that fails its signature or email check answers 404 with this page. */
export default function EnrollmentLinkNotValid() {
  return (
    <main className="home" data-enrollment-link="not-valid">
      <h1>This enrollment link is not valid</h1>
      <p>Please return to your leasing portal and open the enrollment link again.</p>
    </main>
  );
}
