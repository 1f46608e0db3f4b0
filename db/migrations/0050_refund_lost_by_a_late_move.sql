-- Issue #41 (a review's finding): a paid appointment moved by the buyer once its refund window had closed
-- keeps that window closed. The kind's policy refunds a buyer's cancellation made refundUntilHours (24) or
-- more before the start, measured from the start the appointment has when it is cancelled: a buyer 10 hours
-- from their paid consultation could move it three days later from their link (moves are allowed up to the
-- kind's 2-hour cutoff) and then cancel it, refunded. The move now records that the refund was lost
-- (manage.ts), and a buyer's cancellation after it is not refunded (appointments/refunds.ts). A move made
-- while the window is still open gives the new time its own window, as before.
ALTER TABLE appointments ADD COLUMN refund_forfeited boolean NOT NULL DEFAULT false;
