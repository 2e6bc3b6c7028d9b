/** A JSON value, as the plan JSON's sections are built. */
export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
