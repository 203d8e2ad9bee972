import { Slot } from "radix-ui";
import type { ButtonHTMLAttributes } from "react";
import styles from "./ui.module.css";

export type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: "primary" | "secondary" | "danger" | "ghost";
  size?: "normal" | "small";
  /** Render the child (a `<Link>`, say) with the button's look instead of a `<button>`. */
  asChild?: boolean;
};

export function Button({ variant = "primary", size = "normal", asChild, className, type, ...props }: ButtonProps) {
  const classes = [styles.button, styles[variant], size === "small" ? styles.small : "", className ?? ""].join(" ").trim();
  if (asChild) return <Slot.Root className={classes} {...props} />;
  return <button type={type ?? "button"} className={classes} {...props} />;
}
