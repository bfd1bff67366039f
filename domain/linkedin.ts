/**
 * "Add to LinkedIn profile" — LinkedIn's documented Add to Profile link for certifications
 * (addtoprofile.linkedin.com: `https://www.linkedin.com/profile/add?startTask=CERTIFICATION_NAME…`),
 * which opens the member's "Add license or certification" form filled in. Dates are months in UTC,
 * the credential's URL is the certificate's public page and its id the certificate's number. Pure.
 */
export interface LinkedInCertification {
  /** The certification's name (the certificate template's). */
  name: string;
  /** The issuing organisation's name, as the learner knows it (the portal's). */
  organization: string;
  issued: string;
  expires: string | null;
  /** The public page anyone can check it on. */
  url: string;
  number: string;
}

const month = (iso: string) => {
  const d = new Date(iso);
  return { year: String(d.getUTCFullYear()), month: String(d.getUTCMonth() + 1) };
};

export function linkedInAddToProfileUrl(c: LinkedInCertification): string {
  const issued = month(c.issued);
  const params = new URLSearchParams({
    startTask: "CERTIFICATION_NAME",
    name: c.name,
    organizationName: c.organization,
    issueYear: issued.year,
    issueMonth: issued.month,
  });
  if (c.expires) {
    const expires = month(c.expires);
    params.set("expirationYear", expires.year);
    params.set("expirationMonth", expires.month);
  }
  params.set("certUrl", c.url);
  params.set("certId", c.number);
  return `https://www.linkedin.com/profile/add?${params}`;
}
