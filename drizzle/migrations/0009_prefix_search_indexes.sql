CREATE INDEX "devices_device_id_pattern_idx" ON "devices" USING btree ("device_id" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "registrations_device_id_pattern_idx" ON "registrations" USING btree ("device_id" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "registrations_user_id_pattern_idx" ON "registrations" USING btree ("user_id" text_pattern_ops);