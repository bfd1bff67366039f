/** The 404 of an activity id that the course does not have (the error page says so in its own words). */
/** Marks a 404 as the activity variant of spec 2.10 ('Activity not found'). */
export const ACTIVITY_NOT_FOUND = "activity-not-found";
