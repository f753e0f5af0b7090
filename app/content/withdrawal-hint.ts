/** The success notice's line on how to withdraw, as content/withdrawal.yml writes it: words, `[label](withdraw)`, words. */
export const WITHDRAWAL_HINT = /^([^[\]]*)\[([^[\]]+)\]\(withdraw\)([^[\]]*)$/;
