// The settings' time zone: while none is chosen (the browser's), the select shows this
// browser's zone, so saving the form keeps it for e-mails and the daily digest too.
const select = document.querySelector("select[data-time-zone]");
const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
if (select && !select.value && zone && [...select.options].some((option) => option.value === zone)) {
  select.value = zone;
}
