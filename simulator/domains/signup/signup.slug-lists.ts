// The sandbox's slug lists (fixtures/signup/slugs.json, sandbox-defined: spec 4.7 gives no slug rules): the
// reserved names create refuses and the names provision holds for review.
import SLUGS from '#fixtures/signup/slugs.json' with { type: 'json' };

const matches = (slug: string, names: readonly string[], prefixes: readonly string[]) => names.includes(slug) || prefixes.some((p) => slug.startsWith(p));

/** A name the service keeps for itself: create answers 409 (details.reason slug_reserved). */
export const isReservedSlug = (slug: string): boolean => matches(slug, SLUGS.reserved, SLUGS.reservedPrefixes);

/** A slug an operator must look at: provision answers 202 REVIEW_REQUIRED. */
export const needsReview = (slug: string): boolean => matches(slug, SLUGS.review, SLUGS.reviewPrefixes);

export const REVIEW_REASON = 'The slug is on the sandbox review list (fixtures/signup/slugs.json); an operator will confirm the signup.';
