// Class-name helper for components: joins conditional classes and lets later Tailwind classes override earlier ones.
import { clsx, type ClassValue } from "clsx";
import { twMerge } from "tailwind-merge";

export function cn(...inputs: ClassValue[]): string {
  return twMerge(clsx(inputs));
}
